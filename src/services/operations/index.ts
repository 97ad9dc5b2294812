/** Operations: backups, health and readiness, and mail (the outbox and its delivery). */
export { createBackups } from './backups.js';
export { createHealthService, type HealthService, LOW_DISK_BYTES } from './health.js';
export { createMailWorker, createOutbox } from './mail.js';
