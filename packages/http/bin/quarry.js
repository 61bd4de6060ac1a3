#!/usr/bin/env node
// The `quarry` command. The real entry is built by tsup into dist/cli.js.
import('../dist/cli.js')
  .then((cli) => cli.main(process.argv))
  .catch((error) => {
    console.error(`quarry: ${error?.message ? error.message : error}`);
    process.exitCode = 1;
  });
