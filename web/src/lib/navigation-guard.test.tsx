import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { Link } from 'react-router';
import { renderInAppRouter } from '@/test/render';
import { useHeldNavigation } from './navigation-guard';

/** A form page whose guard holds every navigation to another page while `guarded` is ticked. */
function GuardedPage() {
  const [guarded, setGuarded] = useState(true);
  const held = useHeldNavigation((currentPathname, nextPathname) => guarded && currentPathname !== nextPathname);
  return (
    <>
      <h1>Form</h1>
      <label>
        <input type="checkbox" checked={guarded} onChange={(event) => setGuarded(event.target.checked)} /> Unsaved changes
      </label>
      <Link to="/other">Other page</Link>
      <Link to="/form?step=2">Next step</Link>
      {held.state === 'blocked' ? (
        <div role="dialog" aria-label="Leave?">
          <button type="button" onClick={held.reset}>
            Stay
          </button>
          <button type="button" onClick={held.proceed}>
            Leave
          </button>
        </div>
      ) : null}
    </>
  );
}

function renderGuarded(entries: string[] = ['/form']) {
  const routes = [
    { path: '/form', element: <GuardedPage /> },
    { path: '/start', element: <h1>Start</h1> },
    { path: '/other', element: <h1>Other</h1> },
  ];
  const { router } = renderInAppRouter(routes, entries[0]!);
  return router;
}

describe('held navigations (the leave guard without the data router)', () => {
  it('holds a link to another page until Leave, and drops it on Stay', async () => {
    const router = renderGuarded();
    fireEvent.click(screen.getByRole('link', { name: 'Other page' }));
    expect(await screen.findByRole('dialog', { name: 'Leave?' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/form');

    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/form');

    fireEvent.click(screen.getByRole('link', { name: 'Other page' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('heading', { name: 'Other' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/other');
  });

  it('lets a change within the page and any navigation once unguarded through', async () => {
    const router = renderGuarded();
    fireEvent.click(screen.getByRole('link', { name: 'Next step' }));
    expect(router.state.location.search).toBe('?step=2');
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Unsaved changes' }));
    fireEvent.click(screen.getByRole('link', { name: 'Other page' }));
    expect(await screen.findByRole('heading', { name: 'Other' })).toBeTruthy();
  });

  it('undoes a held Back at once, and makes it again on Leave', async () => {
    const router = renderGuarded();
    await router.navigate('/start');
    await router.navigate('/form');
    expect(await screen.findByRole('heading', { name: 'Form' })).toBeTruthy();

    await router.navigate(-1);
    expect(await screen.findByRole('dialog', { name: 'Leave?' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/form');
    expect(screen.getByRole('heading', { name: 'Form' })).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Leave' })));
    expect(await screen.findByRole('heading', { name: 'Start' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/start');
  });
});
