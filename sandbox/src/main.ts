import 'reflect-metadata';
import { runApp } from '../../kernel/platform/app/run-app';
import { SANDBOX_CONFIG_SECTIONS } from './config.sections';
import { createSandboxApp } from './sandbox-app.factory';
import { sandboxEnv } from './sandbox-env';

void runApp({
  name: 'payments-sandbox',
  sections: SANDBOX_CONFIG_SECTIONS,
  env: sandboxEnv(process.env),
  embeddedDir: 'sandbox',
  portVariable: 'SANDBOX_PORT',
  create: (config) => createSandboxApp(config),
});
