/** First and last names common in France, across generations and origins. */

export const femaleFirstNames: readonly string[] = [
  'Marie', 'Nathalie', 'Isabelle', 'Sylvie', 'Catherine', 'Claire', 'Sophie', 'Julie', 'Camille', 'Léa',
  'Manon', 'Chloé', 'Emma', 'Inès', 'Sarah', 'Laura', 'Céline', 'Aurélie', 'Émilie', 'Stéphanie',
  'Sandrine', 'Valérie', 'Christine', 'Monique', 'Françoise', 'Anne', 'Hélène', 'Élodie', 'Lucie', 'Pauline',
  'Mathilde', 'Charlotte', 'Juliette', 'Louise', 'Alice', 'Zoé', 'Anaïs', 'Margaux', 'Océane', 'Nadia',
  'Fatima', 'Yasmine', 'Amandine', 'Audrey', 'Virginie', 'Karine', 'Brigitte', 'Martine', 'Jeanne', 'Agathe',
  'Marie-Claire', 'Anne-Sophie', 'Maëlle', 'Clémence', 'Noémie',
];

export const maleFirstNames: readonly string[] = [
  'Jean', 'Pierre', 'Michel', 'Philippe', 'Alain', 'Nicolas', 'Christophe', 'Laurent', 'Stéphane', 'Sébastien',
  'Julien', 'Thomas', 'Alexandre', 'Maxime', 'Antoine', 'Hugo', 'Lucas', 'Louis', 'Gabriel', 'Arthur',
  'Jules', 'Paul', 'Théo', 'Romain', 'Mathieu', 'Guillaume', 'Olivier', 'David', 'Frédéric', 'Éric',
  'Patrick', 'Thierry', 'Franck', 'Jérôme', 'Vincent', 'Benoît', 'François', 'Jacques', 'Bernard', 'Yves',
  'Karim', 'Mehdi', 'Youssef', 'Kévin', 'Florian', 'Adrien', 'Clément', 'Quentin', 'Baptiste', 'Marc',
  'Jean-Baptiste', 'Jean-Pierre', 'Jean-Luc', 'Loïc', 'Yannick',
];

export const lastNames: readonly string[] = [
  'Martin', 'Bernard', 'Thomas', 'Petit', 'Robert', 'Richard', 'Durand', 'Dubois', 'Moreau', 'Laurent',
  'Simon', 'Michel', 'Lefebvre', 'Leroy', 'Roux', 'David', 'Bertrand', 'Morel', 'Fournier', 'Girard',
  'Bonnet', 'Dupont', 'Lambert', 'Fontaine', 'Rousseau', 'Vincent', 'Muller', 'Lefèvre', 'Faure', 'André',
  'Mercier', 'Blanc', 'Guérin', 'Boyer', 'Garnier', 'Chevalier', 'François', 'Legrand', 'Gauthier', 'Garcia',
  'Perrin', 'Robin', 'Clément', 'Morin', 'Nicolas', 'Henry', 'Roussel', 'Mathieu', 'Gautier', 'Masson',
  'Marchand', 'Duval', 'Denis', 'Dumont', 'Lemaire', 'Noël', 'Meyer', 'Dufour', 'Meunier', 'Brun',
  'Blanchard', 'Giraud', 'Joly', 'Rivière', 'Lucas', 'Brunet', 'Gaillard', 'Barbier', 'Arnaud', 'Martinez',
  'Gérard', 'Roche', 'Renard', 'Schmitt', 'Roy', 'Leroux', 'Colin', 'Vidal', 'Caron', 'Picard',
  'Roger', 'Fabre', 'Aubert', 'Lemoine', 'Renaud', 'Dumas', 'Lacroix', 'Olivier', 'Philippe', 'Bourgeois',
  'Benoît', 'Rey', 'Leclerc', 'Payet', 'Rolland', 'Leclercq', 'Guillaume', 'Lecomte', 'Lopez', 'Dupuy',
  'Guillot', 'Hubert', 'Berger', 'Carpentier', 'Sanchez', 'Dupuis', 'Moulin', 'Deschamps', 'Huet', 'Vasseur',
  'Perez', 'Boucher', 'Fleury', 'Royer', 'Klein', 'Jacquet', 'Adam', 'Poirier', 'Marty', 'Aubry',
  'Guyot', 'Carré', 'Charles', 'Renault', 'Charpentier', 'Ménard', 'Maillard', 'Baron', 'Bertin', 'Bailly',
  'Hervé', 'Schneider', 'Fernandez', 'Le Gall', 'Collet', 'Léger', 'Bouvier', 'Julien', 'Prévost', 'Millet',
  'Perrot', 'Le Roux', 'Cousin', 'Germain', 'Breton', 'Besson', 'Langlois', 'Rémy', 'Le Goff', 'Pelletier',
  'Lévêque', 'Perrier', 'Leblanc', 'Barré', 'Lebrun', 'Marchal', 'Weber', 'Mallet', 'Hamon', 'Boulanger',
  'Jacob', 'Monnier', 'Michaud', 'Rodriguez', 'Guichard', 'Gillet', 'Étienne', 'Grondin', 'Poulain', 'Tessier',
  'Chevallier', 'Collin', 'Chauvin', 'Da Silva', 'Bouchet', 'Lemaître', 'Bénard', 'Maréchal', 'Humbert', 'Reynaud',
  'Hoarau', 'Perret', 'Barthélemy', 'Cordier', 'Pichon', 'Lejeune', 'Gilbert', 'Lamy', 'Delaunay', 'Pasquier',
  'Carlier', 'Laporte', 'Benali', 'Haddad', 'Nguyen', 'Diallo', 'Traoré', 'Ferreira', 'Dos Santos', 'Kaya',
];

/** Companies that sometimes appear on a billing address (a holiday rental, a small business...). */
export const companyNames: readonly string[] = [
  'SARL Gîtes du Lac', 'SCI Les Tilleuls', 'Cabinet Dentaire Pasteur', 'Agence Immobilière du Centre',
  'Boulangerie Au Bon Pain', 'Hôtel des Voyageurs', 'Atelier Bois & Design', 'EURL Conciergerie Azur',
];
