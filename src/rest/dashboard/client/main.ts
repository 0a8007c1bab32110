/// <reference lib="dom" />
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { onSignedOut, query, QueryFailed, session, SignedOut } from './graphql.ts';
import { html } from './html.ts';
import { AfterSalesPage } from './pages/after-sales.ts';
import { EventsPage } from './pages/events.ts';
import { OverviewPage } from './pages/overview.ts';
import { SalePage } from './pages/sale.ts';
import { SuppliersPage } from './pages/suppliers.ts';

/** The dashboards: one page per path, a sign-in with a token first, the same navigation on every page. */

const pages = [
  { path: '/dashboard/overview', title: 'Vue d’ensemble', Page: OverviewPage },
  { path: '/dashboard/sale', title: 'Une vente', Page: SalePage },
  { path: '/dashboard/after-sales', title: 'Après-vente', Page: AfterSalesPage },
  { path: '/dashboard/suppliers', title: 'Fournisseurs', Page: SuppliersPage },
  { path: '/dashboard/events', title: 'Journal des événements', Page: EventsPage },
];

const current = pages.find((page) => location.pathname.replace(/\/$/, '').toLowerCase() === page.path) ?? pages[0]!;

const SignIn = ({ message, onSignedIn }: { message: string | null; onSignedIn: () => void }) => {
  const [error, setError] = useState<string | null>(message);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const input = (event.currentTarget as HTMLFormElement).elements.namedItem('token') as HTMLInputElement;
    const token = input.value.trim();
    if (token === '') return setError('Collez votre jeton d’accès (groupe analyst, auditor ou core).');
    setBusy(true);
    session.signIn(token);
    try {
      await query('{ __typename }');
      input.value = '';
      onSignedIn();
    } catch (failure) {
      if (!(failure instanceof SignedOut)) session.signOut();
      setError(failure instanceof SignedOut || failure instanceof QueryFailed ? failure.message : 'La connexion a échoué.');
    } finally {
      setBusy(false);
    }
  };
  return html`<main id="contenu" class="sign-in">
    <h1>Tableaux de bord : connexion</h1>
    <p>
      Collez un jeton d’accès du groupe <code>analyst</code>, <code>auditor</code> ou <code>core</code>. Il reste dans cet onglet et disparaît à sa fermeture.
    </p>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    <form onSubmit=${submit}>
      <label for="token">Jeton d’accès</label>
      <input id="token" name="token" type="password" autocomplete="off" spellcheck=${false} required />
      <button type="submit" disabled=${busy}>${busy ? 'Vérification…' : 'Se connecter'}</button>
    </form>
  </main>`;
};

const App = () => {
  const [signedIn, setSignedIn] = useState(session.token() !== null);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(
    () =>
      onSignedOut((reason) => {
        setMessage(reason);
        setSignedIn(false);
      }),
    [],
  );
  useEffect(() => {
    document.title = `${current.title} · Tableaux de bord`;
  }, []);
  if (!signedIn)
    return html`<${SignIn}
      message=${message}
      onSignedIn=${() => {
        setMessage(null);
        setSignedIn(true);
      }}
    />`;
  const signOut = () => {
    session.signOut();
    setMessage('Vous êtes déconnecté.');
    setSignedIn(false);
  };
  return html`<a class="skip" href="#contenu">Aller au contenu</a>
    <header>
      <nav aria-label="Tableaux de bord">
        <ul>
          ${pages.map((page) => html`<li><a href=${page.path} aria-current=${page === current ? 'page' : undefined}>${page.title}</a></li>`)}
        </ul>
      </nav>
      <button type="button" class="sign-out" onClick=${signOut}>Se déconnecter</button>
    </header>
    <main id="contenu" tabindex="-1">
      <h1>${current.title}</h1>
      <${current.Page} />
    </main>`;
};

render(html`<${App} />`, document.getElementById('app')!);
