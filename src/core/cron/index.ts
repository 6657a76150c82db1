/** Cron jobs: schedules (node-cron syntax + IANA zones), the SQLite repository, the scheduler. */
export * from './types.js';
export { CronRepo, type ClaimOutcome, type CronRunRecord, type NewChatJob } from './repo.js';
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
export { DELIVER_PATTERN, isDeliverAddress, describeTime, effectiveZone, reportSubject } from './format.js';
