import net from "node:net";

/** Sends raw bytes and collects everything the server answers until it closes the connection. */
export function rawExchange(port: number, data: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, "127.0.0.1");
    let out = "";
    s.on("data", (d) => (out += d));
    s.on("error", reject);
    s.on("close", () => resolve(out));
    s.write(data);
  });
}
