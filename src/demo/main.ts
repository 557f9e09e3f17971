// `npm run demo`: the main job on embedded defaults: the example scenarios replayed, the plan back-test over the
// bundled real CME 6E data, then the GLOBEX calendar over the same data.
import { join } from 'node:path';
import { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import { loadHolidayFile, packageRoot } from '../market/holiday-file.js';
import { backtestDemo } from './backtest-demo.js';
import { calendarDemo } from './calendar-demo.js';
import { scenarioDemo } from './scenario-demo.js';

const calendar = new GlobexCalendar(loadHolidayFile());
const scenariosPassed = await scenarioDemo(calendar, join(packageRoot(), 'reports', 'demo'));
await backtestDemo(join(packageRoot(), 'reports', 'demo', 'backtest'));
const calendarClean = await calendarDemo();
process.exitCode = scenariosPassed && calendarClean ? 0 : 1;
