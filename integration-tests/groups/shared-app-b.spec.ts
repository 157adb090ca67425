// One booted app for the spec files listed under "shared-app-b" in integration-tests/setup/app-groups.js (the tier
// run's grouping, integration-tests/helpers/app-group.ts): each member runs unchanged, from a fresh database and sandbox.
import { runSpecFilesOnOneApp } from "../helpers/app-group"

const groups = require("../setup/app-groups")

runSpecFilesOnOneApp(__dirname, groups["shared-app-b"].map((name: string) => `../http/${name}.spec`))
