/**
 * The sandbox app reads the same environment as the service (`npm start` hands both the same),
 * under its own names where the two would collide: SANDBOX_PORT (3001), SANDBOX_OPS_PORT, SANDBOX_HOST,
 * SANDBOX_PUBLIC_URL, SANDBOX_DATABASE_URL (else DATABASE_URL: the sandbox keeps its tables in its
 * own `sandbox` schema, so one database can hold both apps) and SANDBOX_EMBEDDED_PG_PORT (54330).
 * Everything else (secrets, LOG_LEVEL, DATA_DIR…) is shared as it is.
 */
export function sandboxEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const port = env.SANDBOX_PORT?.trim() || '3001';
  return {
    ...env,
    PORT: port,
    // the service's OPS_PORT is not the sandbox's: unset unless SANDBOX_OPS_PORT says
    OPS_PORT: env.SANDBOX_OPS_PORT,
    HOST: env.SANDBOX_HOST ?? env.HOST,
    // unset: http://localhost:<port>, and pages take the origin each request came in on
    PUBLIC_URL: env.SANDBOX_PUBLIC_URL,
    DATABASE_URL: env.SANDBOX_DATABASE_URL ?? env.DATABASE_URL,
    EMBEDDED_PG_PORT: env.SANDBOX_EMBEDDED_PG_PORT?.trim() || '54330',
    OTEL_SERVICE_NAME: env.SANDBOX_OTEL_SERVICE_NAME ?? 'payments-sandbox',
  };
}
