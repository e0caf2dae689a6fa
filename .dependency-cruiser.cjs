/**
 * The layers of ../shared/design/ARCHITECTURE.md, held by `npm run lint` rather than by memory.
 * Each rule says why; a violation names the import that breaks it.
 */
module.exports = {
  forbidden: [
    {
      name: "db-knows-no-service",
      comment: "lib/db is the database handle: it may not depend on any service folder of lib/.",
      severity: "error",
      from: { path: "^lib/db/" },
      // Root modules of lib/ (errors, env, process-singleton) are plumbing, not services; so is the
      // server log and its telemetry (lib/observability), which every layer writes to.
      to: { path: "^lib/[^/]+/", pathNot: "^lib/(db|observability)/" },
    },
    {
      name: "gateway-reaches-upstream-through-the-pool",
      comment:
        "Switchboard as an MCP server reaches downstream servers only through the connection pool and the caller relay.",
      severity: "error",
      from: { path: "^lib/gateway/" },
      to: {
        path: "^lib/upstream/",
        pathNot: "^lib/upstream/(pool|caller-relay|pool-events|connection-config)\\.ts$",
      },
    },
    {
      name: "components-use-lib-as-types",
      comment:
        "Components run in the browser: from lib/ they take types, or what lib/client and the browser-safe modules offer.",
      severity: "error",
      from: { path: "^components/" },
      to: {
        path: "^lib/",
        pathNot: [
          "^lib/client/",
          "^lib/is-record\\.ts$",
          "^lib/format-bytes\\.ts$",
          "^lib/tool-schema-check\\.ts$",
          "^lib/policy/launch-spec-pattern\\.ts$",
          "^lib/policy/(approval-gate|grant-patterns)\\.ts$",
          "^lib/policy/stdio-environment\\.ts$",
          "^lib/events/event-names\\.ts$",
          "^lib/gateway/settings/messages\\.ts$",
          "^lib/servers/import-export/client-formats\\.ts$",
        ],
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "components-take-types-from-types-ts",
      comment:
        "A component's types from lib/ come from the area's small types.ts (or the shared error, action-result and event types), not from the services that define them, so what the browser may use is listed in one place per area.",
      severity: "error",
      from: { path: "^components/" },
      to: {
        path: "^(lib|db)/",
        pathNot: [
          "^lib/[a-z-]+/types\\.ts$",
          "^lib/errors\\.ts$",
          "^lib/actions/action-result\\.ts$",
          "^lib/events/event-types\\.ts$",
          "^lib/client/",
          "^lib/is-record\\.ts$",
          "^lib/format-bytes\\.ts$",
          "^lib/tool-schema-check\\.ts$",
          "^lib/policy/launch-spec-pattern\\.ts$",
          "^lib/policy/(approval-gate|grant-patterns)\\.ts$",
          "^lib/policy/stdio-environment\\.ts$",
          "^lib/events/event-names\\.ts$",
          "^lib/gateway/settings/messages\\.ts$",
          "^lib/servers/import-export/client-formats\\.ts$",
        ],
      },
    },
    {
      name: "cli-speaks-the-wire",
      comment:
        "The CLI talks to a running Switchboard over REST; it shares no code, not even types: its wire types are generated from the OpenAPI document.",
      severity: "error",
      from: { path: "^cli/" },
      to: { path: "^(lib|app|components|db)/" },
    },
    {
      name: "no-circular",
      comment: "An import cycle between modules makes their order of initialisation an accident.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.next|\\.data|test-results|playwright-report)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
  },
};
