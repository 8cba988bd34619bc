#!/usr/bin/env node
import { run } from './program.js';

process.exitCode = await run(process.argv, process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});

// Every connection is closed by now; should a driver still hold a handle, an operator's script must not hang on it.
setTimeout(() => process.exit(), 5000).unref();
