import { applianceFinishes } from './product-family.ts';
import type { ProductFamily } from './product-family.ts';

// Brands and ranges are invented: the demo must not pass for a real manufacturer's offer.

/** Household appliances of the demo catalog. */
export const applianceFamilies: readonly ProductFamily[] = [
  {
    prefix: 'LL', count: 8, name: 'Lave-linge hublot {model} {option} {finish}', gender: 'm',
    models: [['CAQ', 'Calora AquaPro'], ['NVW', 'Nordvik WashLine'], ['EXS', 'Elexa Silence']],
    options: [
      { code: '7K', label: '7 kg 1200 tr/min', priceFactor: 0.85 },
      { code: '8K', label: '8 kg 1400 tr/min' },
      { code: '9K', label: '9 kg 1400 tr/min', priceFactor: 1.12, weightFactor: 1.05 },
      { code: '10K', label: '10 kg 1600 tr/min', priceFactor: 1.3, weightFactor: 1.1 },
    ],
    finishes: applianceFinishes.filter((f) => f.code !== 'INX'),
    intro: 'Lave-linge à chargement frontal, moteur induction.',
    features: ['Classe énergétique A.', 'Niveau sonore en essorage : 72 dB.', 'Départ différé 24 h.', '15 programmes dont laine et express 15 min.', 'Fonction vapeur anti-plis.'],
    price: [379, 649], weightKg: [62, 74], packages: [1, 1], bulky: true,
  },
  {
    prefix: 'SL', count: 4, name: 'Sèche-linge {model} {option} {finish}', gender: 'm',
    models: [['CDR', 'Calora DryCare'], ['NVD', 'Nordvik DryLine'], ['EXD', 'Elexa Doux']],
    options: [
      { code: '8K', label: 'pompe à chaleur 8 kg' },
      { code: '9K', label: 'pompe à chaleur 9 kg', priceFactor: 1.15, weightFactor: 1.05 },
    ],
    finishes: applianceFinishes.filter((f) => f.code !== 'INX'),
    intro: 'Sèche-linge à condensation avec pompe à chaleur.',
    features: ['Classe énergétique A++.', "Capteur d'humidité pour un séchage juste.", "Réservoir d'eau accessible en façade.", 'Tambour réversible anti-froissage.'],
    price: [449, 749], weightKg: [40, 50], packages: [1, 1], bulky: true,
  },
  {
    prefix: 'REF', count: 8, name: 'Réfrigérateur {model} {option} {finish}', gender: 'm',
    models: [['CFC', 'Calora FreshCool'], ['NVC', 'Nordvik Cold'], ['EXF', 'Elexa Frost']],
    options: [
      { code: '1P', label: '1 porte 320 L', priceFactor: 0.65, weightFactor: 0.7 },
      { code: 'CB', label: 'combiné 360 L' },
      { code: 'MP', label: 'multiportes 480 L', priceFactor: 1.7, weightFactor: 1.4 },
      { code: 'US', label: 'américain 560 L', priceFactor: 2.2, weightFactor: 1.8 },
    ],
    finishes: applianceFinishes,
    intro: 'Réfrigérateur à froid ventilé, sans givre.',
    features: ['Classe énergétique D.', 'Bac à légumes à humidité contrôlée.', 'Éclairage LED.', 'Alarme sonore de porte ouverte.', 'Portes réversibles.'],
    price: [449, 699], weightKg: [58, 72], packages: [1, 1], bulky: true,
  },
  {
    prefix: 'CONG', count: 3, name: 'Congélateur {model} {option} {finish}', gender: 'm',
    models: [['CPF', 'Calora PolarFrost'], ['NVI', 'Nordvik Ice']],
    options: [
      { code: 'COF', label: 'coffre 200 L', priceFactor: 0.8, weightFactor: 0.85 },
      { code: 'ARM', label: 'armoire 240 L' },
    ],
    finishes: applianceFinishes.filter((f) => f.code === 'BLC'),
    intro: 'Congélateur grande capacité.',
    features: ['Autonomie de 30 h en cas de coupure.', 'Fonction congélation rapide.', "Fonctionne dans un garage jusqu'à -15 °C."],
    price: [349, 549], weightKg: [45, 60], packages: [1, 1], bulky: true,
  },
  {
    prefix: 'FOUR', count: 6, name: 'Four {model} {option} {finish}', gender: 'm',
    models: [['CCH', 'Calora Chef'], ['NVB', 'Nordvik Bake'], ['EXP', 'Elexa Pyro']],
    options: [
      { code: 'PYR', label: 'encastrable pyrolyse 71 L' },
      { code: 'VAP', label: 'encastrable vapeur 73 L', priceFactor: 1.4, weightFactor: 1.05 },
      { code: 'CAT', label: 'encastrable catalyse 65 L', priceFactor: 0.75, weightFactor: 0.95 },
    ],
    finishes: applianceFinishes.filter((f) => f.code !== 'BLC'),
    intro: 'Four multifonction à chaleur tournante.',
    features: ['Classe énergétique A+.', 'Porte froide à triple vitrage.', 'Sonde de cuisson.', 'Rails télescopiques.', 'Programmateur électronique.'],
    price: [379, 599], weightKg: [32, 40], packages: [1, 1], bulky: true,
  },
  {
    prefix: 'LV', count: 6, name: 'Lave-vaisselle {model} {option} {finish}', gender: 'm',
    models: [['CCL', 'Calora Clean'], ['NVS', 'Nordvik Shine'], ['EXQ', 'Elexa Quiet']],
    options: [
      { code: 'PL', label: 'pose libre 13 couverts' },
      { code: 'TI', label: 'tout intégrable 14 couverts', priceFactor: 1.15 },
      { code: '45', label: '45 cm 10 couverts', priceFactor: 0.85, weightFactor: 0.8 },
    ],
    finishes: applianceFinishes,
    intro: 'Lave-vaisselle silencieux à trois paniers.',
    features: ['44 dB.', 'Troisième panier à couverts.', 'Séchage par ouverture automatique de porte.', 'Sécurité anti-fuite totale.'],
    price: [379, 649], weightKg: [40, 50], packages: [1, 1], bulky: true,
  },
  {
    prefix: 'MO', count: 4, name: 'Micro-ondes {model} {option} {finish}', gender: 'm',
    models: [['CQK', 'Calora Quick'], ['NVM', 'Nordvik Micro'], ['EXW', 'Elexa Wave']],
    options: [
      { code: 'SOLO', label: 'solo 20 L', priceFactor: 0.6 },
      { code: 'GRIL', label: 'grill 25 L' },
      { code: 'COMB', label: 'combiné 30 L', priceFactor: 1.5, weightFactor: 1.2 },
    ],
    finishes: applianceFinishes,
    intro: 'Micro-ondes compact pour la cuisine du quotidien.',
    features: ['Plateau tournant de 27 cm.', 'Décongélation automatique au poids.', 'Sécurité enfants.'],
    price: [119, 179], weightKg: [12, 16], packages: [1, 1], bulky: false,
  },
  {
    prefix: 'PLQ', count: 4, name: 'Plaque de cuisson {model} {option} {finish}', gender: 'f',
    models: [['CCH', 'Calora Chef'], ['NVB', 'Nordvik Bake'], ['EXI', 'Elexa Induc']],
    options: [
      { code: 'IND3', label: 'induction 3 foyers' },
      { code: 'IND4', label: 'induction 4 foyers', priceFactor: 1.3 },
      { code: 'VITR', label: 'vitrocéramique 4 foyers', priceFactor: 0.7 },
    ],
    finishes: applianceFinishes.filter((f) => f.code === 'NOI'),
    intro: 'Table de cuisson encastrable 60 cm.',
    features: ['Commandes sensitives.', 'Fonction booster.', 'Minuterie par foyer.', 'Verrouillage des commandes.'],
    price: [299, 449], weightKg: [9, 13], packages: [1, 1], bulky: false,
  },
  {
    prefix: 'HOT', count: 3, name: 'Hotte {model} {option} {finish}', gender: 'f',
    models: [['CAI', 'Calora Air'], ['NVF', 'Nordvik Flow']],
    options: [
      { code: 'D60', label: 'décorative 60 cm' },
      { code: 'D90', label: 'décorative 90 cm', priceFactor: 1.25, weightFactor: 1.2 },
      { code: 'TIR', label: 'tiroir 60 cm', priceFactor: 0.6, weightFactor: 0.6 },
    ],
    finishes: applianceFinishes.filter((f) => f.code !== 'BLC'),
    intro: 'Hotte aspirante, évacuation ou recyclage.',
    features: ['Débit maximal 600 m³/h.', 'Éclairage LED.', 'Filtres à graisse lavables au lave-vaisselle.'],
    price: [249, 399], weightKg: [12, 19], packages: [1, 1], bulky: false,
  },
];
