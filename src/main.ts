import 'reflect-metadata';
import { createApp } from './app.factory';
import { SERVICE_APP_NAME } from './app.module';
import { CONFIG_SECTIONS } from './config.sections';
import { runApp } from '../kernel/platform/app/run-app';

void runApp({ name: SERVICE_APP_NAME, sections: CONFIG_SECTIONS, create: (config) => createApp(config) });
