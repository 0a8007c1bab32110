import { Refusal } from '../decider.ts';
import type { SaleEvent } from './events.ts';

/** Why a sale's decider refuses a command; the edge maps each code to its documented answer. */
export type SaleRefusalCode =
  /** The sale's stream does not exist. */
  | 'sale_not_found'
  /** Acknowledge, refuse: no such line for this supplier, or it is already acknowledged (acknowledge only), shipped, cancelled or refused. */
  | 'line_not_found_or_processed'
  /** Ship: no such line for this supplier, or it is already shipped, cancelled or refused. */
  | 'nothing_deliverable'
  /** Hand over: the line is not one a supplier refused (open, shipped, cancelled, or from own stock). */
  | 'line_not_refused'
  /** A product ID that is not one of the sale's products. */
  | 'unknown_product'
  /** Cancel, address update: a product of the sale has already left. */
  | 'already_shipped'
  | 'sale_cancelled'
  /** Delivery appointment: the sale is cancelled or nothing is left to ship. */
  | 'not_schedulable'
  /** Delivery appointment: the appointment changed since the planning was booked against it. */
  | 'appointment_changed'
  /** Tracking number: the line already has one (its labels print it). */
  | 'tracking_number_exists'
  /** Import: a supplier line came without its tracking number (the handler allocates one per line). */
  | 'tracking_number_missing'
  /** Tracking number: the product ships from own stock, so it has no supplier line to track. */
  | 'no_supplier_line'
  | 'unknown_refund';

export type SaleDecision = readonly SaleEvent[] | Refusal<SaleRefusalCode>;

export const refuse = (code: SaleRefusalCode, message: string, details: Record<string, unknown> = {}): Refusal<SaleRefusalCode> =>
  new Refusal(code, message, details);
