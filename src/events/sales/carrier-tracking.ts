/**
 * Where a customer follows a parcel: one public tracking page per carrier, the tracking number put
 * into it URL-encoded (`{tracking}` marks its place). Carrier names are matched whatever their case,
 * spaces, punctuation or accents ("La Poste", "laposte", "LA-POSTE", "Kühne + Nagel"). A carrier
 * missing from this table has no URL (null) rather than a guessed one.
 *
 * The freight carriers' pages need no account: Kuehne+Nagel's myKN public tracking reads the number
 * from `query`; Geodis' recipient space (espace destinataires) from its `#/fr/suivi/<number>` route,
 * after the `#` (its page is an application that reads the fragment: the number never reaches
 * Geodis' server logs through the URL); DB Schenker's public tracking from `refNumber` (DB Schenker is
 * part of DSV since 2025; the dbschenker.com address is the one its labels and notices still give).
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
 * | Kuehne+Nagel (Kühne + Nagel, KN)| https://mykn.kuehne-nagel.com/public-tracking/shipments?query={tracking}                  |
 * | Geodis                         | https://espace-client.geodis.com/services/destinataires/#/fr/suivi/{tracking}              |
 * | DB Schenker (Schenker)         | https://www.dbschenker.com/app/tracking-public/?refNumber={tracking}                       |
 */

const laPoste = 'https://www.laposte.fr/outils/suivre-vos-envois?code={tracking}';
const kuehneNagel = 'https://mykn.kuehne-nagel.com/public-tracking/shipments?query={tracking}';
const dbSchenker = 'https://www.dbschenker.com/app/tracking-public/?refNumber={tracking}';

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
  ['kuehnenagel', kuehneNagel],
  ['kuhnenagel', kuehneNagel],
  ['kn', kuehneNagel],
  ['geodis', 'https://espace-client.geodis.com/services/destinataires/#/fr/suivi/{tracking}'],
  ['dbschenker', dbSchenker],
  ['schenker', dbSchenker],
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
