import { localDateIn } from '../../time/local-dates.ts';

/**
 * The day a fact counts on for the tax administration: the calendar day in metropolitan France, whatever
 * time zone the plannings run in (PLANNING_TIMEZONE). A consumer sale is reported on the day it was
 * recorded, and a day is reported once it is over, both on this clock.
 */
export const administrationTimezone = 'Europe/Paris';

export const administrationDay: (instant: string) => string = localDateIn(administrationTimezone);
