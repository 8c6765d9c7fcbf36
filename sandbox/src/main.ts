import 'reflect-metadata';
import { runApp } from '../../kernel/platform/app/run-app';
import { SANDBOX_CONFIG_SECTIONS } from './config.sections';
import { createSandboxApp } from './sandbox-app.factory';
import { sandboxEnv } from './sandbox-env';
import { SANDBOX_APP_NAME } from './sandbox-app.module';

void runApp({
  name: SANDBOX_APP_NAME,
  sections: SANDBOX_CONFIG_SECTIONS,
  env: sandboxEnv(process.env),
  embeddedDir: 'sandbox',
  portVariable: 'SANDBOX_PORT',
  opsPortVariable: 'SANDBOX_OPS_PORT',
  create: (config) => createSandboxApp(config),
});
