import type { Refusal } from '../../events/decider.ts';
import { isoWeekday } from '../../events/planning/calendar-date.ts';
import type { Slot } from '../../events/planning/slot-booking.ts';
import { HttpError } from '../../http/http-error.ts';
import { customerOf, type AppointmentRoutes } from '../sav-appointments/sav-appointment-routes.ts';
import type { Runtime } from '../../runtime.ts';
import { invalidParameters, savNotFound } from './chatbot-errors.ts';
import { appointmentBody, appointmentSlotsQuery, chatbotSavId } from './schemas.ts';

/**
 * GET /api/sav/{savId}/appointment/slots and POST /api/sav/{savId}/appointment, for the customer
 * through the chatbot: the e-mail given must be the SAV's or its order's customer's (otherwise the
 * same 404 as an unknown SAV), and every text is French, shown to the customer as it is.
 */

const weekdays = ['lundis', 'mardis', 'mercredis', 'jeudis', 'vendredis', 'samedis', 'dimanches'];
const statuses: Readonly<Record<string, string>> = { resolved: 'résolu', closed: 'clos', cancelled: 'annulé', in_progress: 'en cours' };

/** 2026-10-13 -> 13/10/2026, as a French reader writes a date. */
export const frenchDate = (date: string): string => date.split('-').reverse().join('/');

const unavailable = (message: string): HttpError => new HttpError(409, 'Créneau indisponible', message);

export const chatbotAppointmentRefused = (savId: number, refusal: Refusal, slot: Slot): HttpError => {
  const day = frenchDate(slot.date);
  switch (refusal.code) {
    case 'unknown_sav':
      return savNotFound(savId);
    case 'sav_status_conflict': {
      const status = String(refusal.details.status);
      return new HttpError(409, 'Rendez-vous impossible', `Le SAV ${savId} est ${statuses[status] ?? status} : aucun rendez-vous ne peut lui être donné`);
    }
    case 'slot_full':
      return new HttpError(409, 'Créneau complet', `Le créneau du ${day} à ${slot.time} est complet ; choisissez un autre créneau`);
    case 'in_the_past':
      return unavailable(`Le ${day} est passé : choisissez un jour à venir`);
    case 'holiday':
      return unavailable(`Le ${day} est un jour férié : aucun rendez-vous n'est donné ce jour-là`);
    case 'closed_day':
      return unavailable(`Aucun rendez-vous n'est donné les ${weekdays[isoWeekday(slot.date) - 1] ?? ''} (${day})`);
    case 'unknown_slot': {
      const slotTimes = refusal.details.slotTimes;
      const offered = Array.isArray(slotTimes) ? ` (créneaux : ${slotTimes.join(', ')})` : '';
      return unavailable(`Il n'y a pas de créneau à ${slot.time}${offered}`);
    }
    default:
      throw new Error(`SAV appointment refused: ${refusal.code} (${refusal.message})`);
  }
};

export const chatbotAppointmentRoutes = (runtime: Runtime): AppointmentRoutes => ({
  param: 'savId',
  savId: chatbotSavId,
  slotsQuery: appointmentSlotsQuery,
  body: appointmentBody,
  mayAccess: customerOf(runtime),
  texts: {
    invalid: invalidParameters,
    invalidField: (field, message) => new HttpError(400, 'Paramètres invalides', `Le champ ${field} ${frenchRange(message)}`),
    savNotFound,
    refused: chatbotAppointmentRefused,
    answered: (_savId, status, slot, previous) => {
      const at = `le ${frenchDate(slot.date)} à ${slot.time}`;
      if (status === 'unchanged') return `Votre rendez-vous est déjà fixé ${at}`;
      return previous ? `Votre rendez-vous a été déplacé ${at}` : `Votre rendez-vous est fixé ${at}`;
    },
  },
});

/** The period's problems (occupied-dates.ts), in French. */
const frenchRange = (message: string): string => {
  const before = /^must not be before the start date \((.+)\)$/.exec(message);
  if (before) return `ne doit pas être avant la date de début (${before[1]})`;
  if (message.startsWith('the range must not exceed')) return 'ne doit pas être à plus de 366 jours de la date de début';
  return 'est invalide';
};
