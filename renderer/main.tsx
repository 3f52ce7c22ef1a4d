import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserApp } from './App.tsx';
import { pickApi } from './api/pick-api.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <BrowserApp initial={pickApi(window)} />
  </StrictMode>,
);
