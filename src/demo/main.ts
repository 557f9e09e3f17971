// `npm run demo`: the main job on embedded defaults: the example scenarios replayed, then the GLOBEX calendar
// over the bundled real CME 6E data. (The plan back-test joins it with the back-tester.)
import { join } from 'node:path';
import { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import { loadHolidayFile, packageRoot } from '../market/holiday-file.js';
import { calendarDemo } from './calendar-demo.js';
import { scenarioDemo } from './scenario-demo.js';

const calendar = new GlobexCalendar(loadHolidayFile());
const scenariosPassed = await scenarioDemo(calendar, join(packageRoot(), 'reports', 'demo'));
const calendarClean = await calendarDemo();
process.exitCode = scenariosPassed && calendarClean ? 0 : 1;
