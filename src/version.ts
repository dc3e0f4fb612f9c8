// Imported statically so the compiled executable carries it (there is no package.json beside the binary).
import pkg from "../package.json" with { type: "json" };

export const VERSION: string = pkg.version;

/** Sent with every outbound request (recording downloads, webhook deliveries). */
export const USER_AGENT = `callreview/${VERSION}`;
