import type { OrderAddress, OrderCustomer } from './contract-types.ts';
import { cities, streetComplements, streetNames } from './french-addresses.ts';
import type { City } from './french-addresses.ts';
import { femaleFirstNames, lastNames, maleFirstNames } from './french-names.ts';
import type { Random } from './random.ts';

export interface Buyer {
  customer: OrderCustomer;
  address: OrderAddress;
}

export interface Buyers {
  next(): Buyer;
  /** Someone else's name at another address: a gift delivered to a relative. */
  giftRecipient(): OrderAddress;
}

// Reserved example domains: demo mail notifications can never reach a real mailbox.
const mailDomains = ['example.org', 'example.com', 'example.net'] as const;
// Most addresses carry a number, so that two customers of the same name rarely share one.
const emailPatterns = [
  ['first.last', 10],
  ['first.last99', 30],
  ['flast999', 20],
  ['firstlastyear', 25],
  ['first_last999', 15],
] as const;

/** Customers come back: about one order in ten is placed by one of the last few thousand buyers. */
const returningShare = 0.1;
const rememberedBuyers = 2_000;

/** A source of buyers; it remembers a bounded number of them, so it scales to any number of orders. */
export function buyers(random: Random): Buyers {
  const pickCity = random.weightedPicker(cities.map((city) => [city, city.weight] as const));
  const address = (person: OrderCustomer): OrderAddress => newAddress(random, pickCity(), person);
  const remembered: Buyer[] = [];
  let oldest = 0;
  return {
    next: () => {
      if (remembered.length >= 50 && random.chance(returningShare)) {
        const known = random.pick(remembered);
        return copy({ customer: known.customer, address: random.chance(0.85) ? known.address : address(known.customer) });
      }
      const customer = newPerson(random);
      const buyer = { customer, address: address(customer) };
      if (remembered.length < rememberedBuyers) remembered.push(buyer);
      else {
        remembered[oldest] = buyer;
        oldest = (oldest + 1) % rememberedBuyers;
      }
      return copy(buyer);
    },
    giftRecipient: () => address(newPerson(random)),
  };
}

function newPerson(random: Random): OrderCustomer {
  const firstname = random.pick(random.chance(0.52) ? femaleFirstNames : maleFirstNames);
  const lastname = random.pick(lastNames);
  const phone = `+33${random.chance(0.75) ? 6 : 7}${String(random.int(0, 99_999_999)).padStart(8, '0')}`;
  return {
    email: emailOf(random, firstname, lastname),
    firstname,
    lastname,
    ...(random.chance(0.92) ? { phone } : {}),
  };
}

function emailOf(random: Random, firstname: string, lastname: string): string {
  const first = slug(firstname);
  const last = slug(lastname);
  const pattern = random.weighted(emailPatterns);
  const local =
    pattern === 'first.last'
      ? `${first}.${last}`
      : pattern === 'first.last99'
        ? `${first}.${last}${random.int(1, 99)}`
        : pattern === 'flast999'
          ? `${first.charAt(0)}${last}${random.int(1, 999)}`
          : pattern === 'firstlastyear'
            ? `${first}${last}${random.int(1950, 2006)}`
            : `${first}_${last}${random.int(1, 999)}`;
  return `${local}@${random.pick(mailDomains)}`;
}

function newAddress(random: Random, city: City, person: OrderCustomer): OrderAddress {
  const number = random.chance(0.7) ? random.int(1, 40) : random.int(41, 220);
  const suffix = random.weighted([
    ['', 96],
    [' bis', 3],
    [' ter', 1],
  ] as const);
  const street = [`${number}${suffix} ${random.pick(streetNames)}`];
  if (random.chance(0.22)) street.push(random.pick(streetComplements));
  return {
    firstname: person.firstname,
    lastname: person.lastname,
    street,
    postcode: random.pick(city.postcodes),
    city: city.name,
    country_id: 'FR',
    ...(person.phone === undefined ? {} : { telephone: person.phone }),
  };
}

/** "Jean-Baptiste Le Gall" gives "jean-baptiste" and "legall". */
const slug = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z-]/g, '');

// Every order gets its own objects: a consumer that edits one order must not edit another.
const copy = ({ customer, address }: Buyer): Buyer => ({
  customer: { ...customer },
  address: { ...address, street: [...address.street] },
});
