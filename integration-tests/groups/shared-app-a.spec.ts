// One booted app for the spec files listed under "shared-app-a" in integration-tests/setup/app-groups.js (the tier
// run's grouping, integration-tests/helpers/app-group.ts): each member runs unchanged, from a fresh database and sandbox.
import { runSpecFilesOnOneApp } from "../helpers/app-group"

runSpecFilesOnOneApp(require("../setup/app-groups")["integration:http"]["shared-app-a"])
