/** Cities with their real postcodes, weighted roughly by population, and common street names. */

export interface City {
  name: string;
  postcodes: readonly string[];
  /** Relative share of the orders. */
  weight: number;
}

const range = (prefix: string, from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${String(from + i).padStart(3, '0')}`);

export const cities: readonly City[] = [
  { name: 'Paris', postcodes: range('75', 1, 20), weight: 2100 },
  { name: 'Marseille', postcodes: range('13', 1, 16), weight: 870 },
  { name: 'Lyon', postcodes: range('69', 1, 9), weight: 520 },
  { name: 'Toulouse', postcodes: ['31000', '31100', '31200', '31300', '31400', '31500'], weight: 500 },
  { name: 'Nice', postcodes: ['06000', '06100', '06200', '06300'], weight: 340 },
  { name: 'Nantes', postcodes: ['44000', '44100', '44200', '44300'], weight: 320 },
  { name: 'Montpellier', postcodes: ['34000', '34070', '34080', '34090'], weight: 300 },
  { name: 'Strasbourg', postcodes: ['67000', '67100', '67200'], weight: 290 },
  { name: 'Bordeaux', postcodes: ['33000', '33100', '33200', '33300', '33800'], weight: 260 },
  { name: 'Lille', postcodes: ['59000', '59160', '59260', '59777', '59800'], weight: 235 },
  { name: 'Rennes', postcodes: ['35000', '35200', '35700'], weight: 225 },
  { name: 'Reims', postcodes: ['51100'], weight: 180 },
  { name: 'Toulon', postcodes: ['83000', '83100', '83200'], weight: 180 },
  { name: 'Saint-Étienne', postcodes: ['42000', '42100'], weight: 175 },
  { name: 'Le Havre', postcodes: ['76600', '76610', '76620'], weight: 165 },
  { name: 'Grenoble', postcodes: ['38000', '38100'], weight: 160 },
  { name: 'Dijon', postcodes: ['21000'], weight: 160 },
  { name: 'Angers', postcodes: ['49000', '49100'], weight: 155 },
  { name: 'Villeurbanne', postcodes: ['69100'], weight: 155 },
  { name: 'Nîmes', postcodes: ['30000', '30900'], weight: 150 },
  { name: 'Aix-en-Provence', postcodes: ['13090', '13100'], weight: 145 },
  { name: 'Clermont-Ferrand', postcodes: ['63000', '63100'], weight: 145 },
  { name: 'Le Mans', postcodes: ['72000', '72100'], weight: 145 },
  { name: 'Brest', postcodes: ['29200'], weight: 140 },
  { name: 'Tours', postcodes: ['37000', '37100', '37200'], weight: 135 },
  { name: 'Amiens', postcodes: ['80000', '80080', '80090'], weight: 135 },
  { name: 'Limoges', postcodes: ['87000', '87100', '87280'], weight: 130 },
  { name: 'Annecy', postcodes: ['74000', '74370', '74600', '74940', '74960'], weight: 130 },
  { name: 'Perpignan', postcodes: ['66000', '66100'], weight: 120 },
  { name: 'Boulogne-Billancourt', postcodes: ['92100'], weight: 120 },
  { name: 'Metz', postcodes: ['57000', '57050', '57070'], weight: 120 },
  { name: 'Besançon', postcodes: ['25000'], weight: 115 },
  { name: 'Orléans', postcodes: ['45000', '45100'], weight: 115 },
  { name: 'Rouen', postcodes: ['76000', '76100'], weight: 110 },
  { name: 'Mulhouse', postcodes: ['68100', '68200'], weight: 105 },
  { name: 'Caen', postcodes: ['14000'], weight: 105 },
  { name: 'Nancy', postcodes: ['54000', '54100'], weight: 105 },
  { name: 'Versailles', postcodes: ['78000'], weight: 85 },
  { name: 'La Rochelle', postcodes: ['17000'], weight: 75 },
  { name: 'Avignon', postcodes: ['84000'], weight: 90 },
];

export const streetNames: readonly string[] = [
  'rue de la République', 'rue Victor Hugo', 'avenue Jean Jaurès', 'rue Pasteur', 'boulevard Gambetta',
  'rue du Général de Gaulle', 'avenue Foch', 'rue de la Paix', 'place de la Liberté', 'rue des Lilas',
  'allée des Tilleuls', 'chemin des Vignes', 'impasse des Acacias', 'rue du Moulin', "rue de l'Église",
  'rue Nationale', 'avenue de la Gare', 'rue Émile Zola', 'rue Jules Ferry', 'boulevard Voltaire',
  'rue Carnot', 'rue Anatole France', 'avenue du Maréchal Leclerc', 'rue Jean Moulin', 'rue des Écoles',
  'rue du Château', 'rue de la Fontaine', 'rue du Port', 'cours Jean Jaurès', 'rue Saint-Michel',
  'rue des Rosiers', 'rue Alsace-Lorraine', 'boulevard de la Liberté', 'avenue de la Libération', 'rue Montesquieu',
  'rue de Verdun', 'rue du 8 Mai 1945', 'rue Lamartine', 'avenue Pablo Picasso', 'rue Jean-Jacques Rousseau',
  'rue des Peupliers', 'allée des Marronniers', 'rue du Stade', 'rue de la Mairie', 'avenue de Bretagne',
  'rue Hoche', 'rue Danton', 'boulevard Pasteur', 'rue Condorcet', 'rue des Jardins',
];

/** Second address lines, for flats and buildings. */
export const streetComplements: readonly string[] = [
  'Bâtiment A', 'Bâtiment B', 'Bâtiment C', 'Escalier 2', 'Résidence Les Pins', 'Résidence du Parc',
  '3e étage, porte gauche', '2e étage', '5e étage, code 1984B', 'Appartement 12', 'Appartement 41', 'Au fond de la cour',
];
