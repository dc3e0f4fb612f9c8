import { InvalidArgumentError } from "commander";

/**
 * Argument parsers for commander's `.argParser()`: a bad value is refused by
 * commander itself, as a usage error (exit code 2), before any action runs.
 */
export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < 1) throw new InvalidArgumentError("expected a positive integer");
  return Number(value);
}

export function intRange(min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return Number(value);
  };
}
