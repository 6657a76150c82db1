/** Cron jobs: schedules (node-cron's syntax, computed by croner, + IANA zones), the scheduler, and the core's runner and deliverer. */
export * from './types.js';
export type { ClaimOutcome, CronRepo, CronRunRecord, NewChatJob } from '../store/types.js';
export {
  CronSchedule,
  isValidTimeZone,
  lateWindowMs,
  scheduleProblem,
  validateJobSchedule,
  MIN_LATE_WINDOW_MS,
  MAX_LATE_WINDOW_MS,
} from './schedule.js';
export { CronScheduler, SILENT, shortResult, validateCronJobs, type CronSchedulerDeps } from './scheduler.js';
export { looksLikeOnlyAQuestion, NO_QUESTION_RETRY_INSTRUCTION } from './question.js';
export { describeTime, effectiveZone, reportSubject } from './format.js';
export { createCronDeliverer, createCronRunner, createCronScheduler, cronPerson, type CronBridgeDeps } from './bridge.js';
