// First, before React's code is evaluated: a company link's first calls start as this module runs.
import { appQueryClient } from '@/app/start-first-screen';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import '@/styles/global.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App queryClient={appQueryClient} />
  </StrictMode>,
);
