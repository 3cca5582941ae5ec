/** The back office's entry (admin.html): its own chunks, never loaded by the storefront. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AdminApp } from './AdminApp';
import './admin.css';

const container = document.getElementById('admin-root');
if (!container) throw new Error('The page has no #admin-root element.');
createRoot(container).render(
  <StrictMode>
    <AdminApp />
  </StrictMode>,
);
