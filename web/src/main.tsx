// First, before React's code is evaluated: the first screen's calls start as this module runs.
import { appQueryClient, firstScreenAnswered } from '@/app/start-first-screen';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import '@/styles/global.css';

void firstScreenAnswered().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App queryClient={appQueryClient} />
    </StrictMode>,
  ),
);
