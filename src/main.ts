import 'reflect-metadata';
import { createApp } from './app.factory';
import { CONFIG_SECTIONS } from './config.sections';
import { runApp } from '../kernel/platform/app/run-app';

void runApp({ name: 'payments-platform', sections: CONFIG_SECTIONS, create: (config) => createApp(config) });
