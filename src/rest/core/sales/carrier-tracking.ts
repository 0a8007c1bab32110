/**
 * Where a customer follows a parcel: one public tracking page per carrier, the tracking number put
 * into it URL-encoded (`{tracking}` marks its place). Carrier names are matched whatever their case,
 * spaces or punctuation ("La Poste", "laposte", "LA-POSTE"). A carrier missing from this table has
 * no URL (null) rather than a guessed one: Geodis, for one, has no public page that takes the number
 * in its address, so its parcels are followed from the label's number alone.
 *
 * | Carrier (and aliases)          | Tracking page                                                                              |
 * |--------------------------------|--------------------------------------------------------------------------------------------|
 * | Colissimo, La Poste            | https://www.laposte.fr/outils/suivre-vos-envois?code={tracking}                            |
 * | Chronopost                     | https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT={tracking}             |
 * | DPD                            | https://trace.dpd.fr/fr/trace/{tracking}                                                   |
 * | GLS                            | https://gls-group.com/FR/fr/suivi-colis?match={tracking}                                   |
 * | UPS                            | https://www.ups.com/track?tracknum={tracking}                                              |
 * | DHL                            | https://www.dhl.com/fr-fr/home/tracking.html?tracking-id={tracking}                        |
 * | FedEx                          | https://www.fedex.com/fedextrack/?trknbr={tracking}                                        |
 * | TNT                            | https://www.tnt.com/express/fr_fr/site/outils-expedition/suivi.html?searchType=con&cons={tracking} |
 */

const laPoste = 'https://www.laposte.fr/outils/suivre-vos-envois?code={tracking}';

/** Keyed by the normalized carrier name (see `carrierKey`). */
export const trackingPages: ReadonlyMap<string, string> = new Map([
  ['colissimo', laPoste],
  ['laposte', laPoste],
  ['chronopost', 'https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT={tracking}'],
  ['dpd', 'https://trace.dpd.fr/fr/trace/{tracking}'],
  ['gls', 'https://gls-group.com/FR/fr/suivi-colis?match={tracking}'],
  ['ups', 'https://www.ups.com/track?tracknum={tracking}'],
  ['dhl', 'https://www.dhl.com/fr-fr/home/tracking.html?tracking-id={tracking}'],
  ['fedex', 'https://www.fedex.com/fedextrack/?trknbr={tracking}'],
  ['tnt', 'https://www.tnt.com/express/fr_fr/site/outils-expedition/suivi.html?searchType=con&cons={tracking}'],
]);

/** "La Poste" -> "laposte": lower case, accents and everything but letters and digits dropped. */
export const carrierKey = (carrier: string): string =>
  carrier
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** The carrier's tracking page for this number; null when the carrier is unknown or not named. */
export const trackingUrl = (carrier: string | null, trackingNumber: string): string | null => {
  if (carrier === null) return null;
  const page = trackingPages.get(carrierKey(carrier));
  return page === undefined ? null : page.replace('{tracking}', encodeURIComponent(trackingNumber));
};
