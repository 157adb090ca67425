// One booted app for the reliability spec files listed under "shared-app" in integration-tests/setup/app-groups.js
// (integration-tests/helpers/app-group.ts): each member runs unchanged, from a fresh database and sandbox.
import { runSpecFilesOnOneApp } from "../../integration-tests/helpers/app-group"

runSpecFilesOnOneApp(require("../../integration-tests/setup/app-groups").reliability["shared-app"])
