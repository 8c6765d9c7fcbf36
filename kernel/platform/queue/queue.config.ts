import { defineConfig } from '../config/config';

/** The job queue's worker in this process (JOB_QUEUE_WORKER_ENABLED, default on; off: a replica that only takes requests and enqueues). */
export class QueueConfig {
  workerEnabled: boolean;
}

export const queueConfig = defineConfig(QueueConfig, (env) => ({ workerEnabled: env.bool('JOB_QUEUE_WORKER_ENABLED', true) }));
