import { changelogTable } from "../../src/versions/changelog";
import { cliArgs } from "../cli";

cliArgs("changelog", "Prints the versions table of docs/api.md from the version changes.", {});

// Prints the versions table of docs/api.md ("Versions") from the version changes (src/versions/changes/);
// test/versions/changelog.node.test.ts fails while docs/api.md differs from it.
console.log(changelogTable());
