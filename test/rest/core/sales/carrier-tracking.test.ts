import { describe, expect, it } from 'vitest';
import { trackingUrl } from '../../../../src/events/sales/carrier-tracking.ts';

describe('carrier tracking pages', () => {
  it.each([
    ['Colissimo', 'https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901'],
    ['La Poste', 'https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901'],
    ['Chronopost', 'https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT=6A12345678901'],
    ['dpd', 'https://trace.dpd.fr/fr/trace/6A12345678901'],
    ['GLS', 'https://gls-group.com/FR/fr/suivi-colis?match=6A12345678901'],
    ['UPS', 'https://www.ups.com/track?tracknum=6A12345678901'],
    ['DHL', 'https://www.dhl.com/fr-fr/home/tracking.html?tracking-id=6A12345678901'],
    ['FedEx', 'https://www.fedex.com/fedextrack/?trknbr=6A12345678901'],
    ['TNT', 'https://www.tnt.com/express/fr_fr/site/outils-expedition/suivi.html?searchType=con&cons=6A12345678901'],
    ['Kuehne+Nagel', 'https://mykn.kuehne-nagel.com/public-tracking/shipments?query=6A12345678901'],
    ['Kühne + Nagel', 'https://mykn.kuehne-nagel.com/public-tracking/shipments?query=6A12345678901'],
    ['Geodis', 'https://espace-client.geodis.com/services/destinataires/#/fr/suivi/6A12345678901'],
    ['DB Schenker', 'https://www.dbschenker.com/app/tracking-public/?refNumber=6A12345678901'],
    ['Schenker', 'https://www.dbschenker.com/app/tracking-public/?refNumber=6A12345678901'],
  ])('when the carrier is %s, the number goes into its tracking page', (carrier, url) => {
    expect(trackingUrl(carrier, '6A12345678901')).toBe(url);
  });

  it('when the carrier is written with another case, spaces, punctuation or accents, it is still recognized', () => {
    expect(trackingUrl('  LA-POSTE ', 'X1')).toBe('https://www.laposte.fr/outils/suivre-vos-envois?code=X1');
    expect(trackingUrl('Colissimó', 'X1')).toBe('https://www.laposte.fr/outils/suivre-vos-envois?code=X1');
  });

  it('when the number holds characters that mean something in a URL, they are encoded', () => {
    expect(trackingUrl('DPD', 'A B/C?d=1&e#f')).toBe('https://trace.dpd.fr/fr/trace/A%20B%2FC%3Fd%3D1%26e%23f');
  });

  it('when the carrier is Geodis, the number goes after the # of its recipient page, encoded', () => {
    expect(trackingUrl('GEODIS', 'A B#1')).toBe('https://espace-client.geodis.com/services/destinataires/#/fr/suivi/A%20B%231');
  });

  it.each([['Transports Dupont'], ['Kuehne'], [''], ['constructor'], ['__proto__']])('when the carrier is %j, there is no URL', (carrier) => {
    expect(trackingUrl(carrier, 'X1')).toBeNull();
  });

  it('when no carrier is named, there is no URL', () => {
    expect(trackingUrl(null, 'X1')).toBeNull();
  });
});
