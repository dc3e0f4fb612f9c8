#!/usr/bin/env node
import { runCli } from "./program.js";

// Everything callreview writes (database, recordings, temp files, ffmpeg's output) is for its own user
// only, whatever umask it was started with; the store also sets modes explicitly (src/store/private-files.ts).
process.umask(0o077);

// Entry of both `npm run callreview` and the compiled executable.
const code = await runCli(process.argv.slice(2));
process.exitCode = code;
