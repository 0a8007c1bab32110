import { fabricFinishes, lightFinishes, noOption } from './product-family.ts';
import type { ProductFamily } from './product-family.ts';

/** Lighting and rugs of the demo catalog: small parcels. */
export const decorFamilies: readonly ProductFamily[] = [
  {
    prefix: 'LAMP', count: 3, name: 'Lampadaire {model} {finish}', gender: 'm',
    models: [['ARC', 'arc'], ['TRIPOD', 'trépied'], ['LISEUS', 'liseuse']],
    options: noOption, finishes: lightFinishes,
    intro: 'Lampadaire pour éclairer un coin salon.',
    features: ['Ampoule E27 non fournie.', 'Interrupteur au pied.', 'Hauteur 165 cm.', 'Abat-jour orientable.'],
    price: [79, 189], weightKg: [5, 11], packages: [1, 1], bulky: false,
  },
  {
    prefix: 'LAP', count: 3, name: 'Lampe à poser {model} {finish}', gender: 'f',
    models: [['BOULE', 'Boule'], ['CHAMP', 'Champignon'], ['PIXIE', 'Pixie']],
    options: noOption, finishes: lightFinishes,
    intro: 'Lampe à poser à la lumière douce.',
    features: ['Variateur tactile.', 'Ampoule LED fournie.', 'Câble textile de 1,8 m.'],
    price: [29, 89], weightKg: [1, 3.5], packages: [1, 1], bulky: false,
  },
  {
    prefix: 'SUS', count: 3, name: 'Suspension {model} {finish}', gender: 'f',
    models: [['ROTIN', 'Rotin'], ['DOME', 'Dôme'], ['CONE', 'Cône']],
    options: noOption, finishes: lightFinishes,
    intro: 'Suspension pour salle à manger ou cuisine.',
    features: ['Douille E27.', 'Câble réglable en hauteur.', 'Compatible ampoules LED.'],
    price: [39, 129], weightKg: [1, 4.5], packages: [1, 1], bulky: false,
  },
  {
    prefix: 'TAP', count: 4, name: 'Tapis {model} {option} {finish}', gender: 'm',
    models: [['BERB', 'Berbère'], ['KILIM', 'Kilim'], ['JUTE', 'Jute tressé']],
    options: [
      { code: '160', label: '160x230 cm' },
      { code: '200', label: '200x290 cm', priceFactor: 1.5, weightFactor: 1.55 },
    ],
    finishes: fabricFinishes.filter((f) => ['GRY', 'BEI', 'TER', 'BLU'].includes(f.code)),
    intro: 'Tapis de salon tissé.',
    features: ['Poils courts, entretien facile.', 'Sous-couche antidérapante conseillée.', 'Tissé à plat.'],
    price: [99, 249], weightKg: [6, 11], packages: [1, 1], bulky: false,
  },
];
