/**
 * The layering of ARCHITECTURE.md as a lint (`npm run lint` runs it; CI fails on a violation).
 * Type-only imports count too (`tsPreCompilationDeps`): a type is a dependency of the design.
 */
const FEATURES = 'accounts|auth|cards|links|pix-automatic|three-ds|refunds';
const SHARED = 'gateway|tenants|webhooks';
module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'No import cycles anywhere in kernel, src or sandbox.', severity: 'error', from: { path: '^(kernel|src|sandbox)/' }, to: { circular: true } },
    {
      name: 'platform-is-the-bottom',
      comment: 'The kernel knows neither app; their modules register with it (config sections, error tables, health, jobs).',
      severity: 'error',
      from: { path: '^kernel/' },
      to: { path: '^(src|sandbox)/' },
    },
    { name: 'common-is-pure', comment: 'kernel/common: pure helpers and wire protocols, importing only each other.', severity: 'error', from: { path: '^kernel/common/' }, to: { path: '^(?!kernel/common/)(kernel|src|sandbox)/' } },
    {
      name: 'sandbox-reaches-the-service-over-http',
      comment: 'The sandbox app plays the bank, acquirer and 3DS server: it builds on the kernel and talks to the service over HTTP, never by import.',
      severity: 'error',
      from: { path: '^sandbox/' },
      to: { path: '^src/' },
    },
    { name: 'the-service-does-not-contain-the-sandbox', comment: 'The service reaches the sandbox app over HTTP only (SANDBOX_URL).', severity: 'error', from: { path: '^src/' }, to: { path: '^sandbox/' } },
    { name: 'provider-is-an-edge', comment: 'Ports and adapters of outside parties know no feature.', severity: 'error', from: { path: '^src/provider/' }, to: { path: `^(src/(${FEATURES}|${SHARED})/|sandbox/)` } },
    {
      name: 'features-do-not-import-features',
      comment: 'A feature module talks to another through a port it owns or an event, never by importing it.',
      severity: 'error',
      from: { path: `^src/(${FEATURES})/` },
      to: { path: `^src/(${FEATURES})/`, pathNot: '^src/$1/' },
    },
    {
      name: 'shared-modules-serve-features',
      comment: 'gateway, tenants and webhooks sit below the features and the provider edge.',
      severity: 'error',
      from: { path: `^src/(${SHARED})/` },
      to: { path: `^src/(${FEATURES}|provider)/` },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.spec\\.ts$' },
  },
};
