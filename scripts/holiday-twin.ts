// Writes the JSON twin of the shipped holiday file (dist/calendar/cme-holidays.json), run by `npm run build`: every
// command then reads the calendar with JSON.parse instead of the YAML parser (src/market/holiday-file.ts).
import { writeHolidayTwin } from '../src/market/holiday-file.js';

writeHolidayTwin();
