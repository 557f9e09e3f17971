export * from './dates.js';
export * from './holidays.js';
export * from './globex-calendar.js';
export * from './closed-reason.js';
