/**
 * The one error class of the service and the fixed list of error codes.
 * HTTP answers, CLI messages and pipeline failures all speak these codes, so a
 * client can branch on `error` without ever parsing `message`.
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  // A request the HTTP layer refuses before any route sees it: conflicting Content-Length, broken framing, an interrupted body.
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  report_not_ready: 409,
  method_not_allowed: 405,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  no_file: 422,
  invalid_file: 422,
  empty_payload: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  // Another process held the database's write lock longer than --db-busy-timeout-ms; sent with Retry-After.
  database_busy: 503,
  // Not HTTP answers: raised by the CLI and at start-up.
  invalid_config: 500,
  conflict: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldErrors;
  /** Extra top-level fields of the error body, e.g. `status` of report_not_ready. */
  readonly extra?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, opts: { errors?: FieldErrors; extra?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.errors = opts.errors;
    this.extra = opts.extra;
  }

  toBody(): Record<string, unknown> {
    return {
      error: this.code,
      message: this.message,
      ...(this.errors ? { errors: this.errors } : {}),
      ...(this.extra ?? {}),
    };
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
