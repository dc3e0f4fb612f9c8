// The slice of Bun's globals the listener uses; present only inside the compiled executable.
declare namespace Bun {
  interface Server {
    readonly port: number;
    stop(closeActiveConnections?: boolean): Promise<void>;
  }
  function serve(options: {
    fetch: (req: Request) => Response | Promise<Response>;
    port: number;
    hostname: string;
    maxRequestBodySize?: number;
    idleTimeout?: number;
    error?: (error: Error) => Response | Promise<Response>;
  }): Server;
}
