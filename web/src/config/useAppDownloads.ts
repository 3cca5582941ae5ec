import { useEffect, useState } from 'react';
import { INTEGRATIONS_OFF, loadIntegrations, type AppDownloads } from './integrations';

/** The platforms the store sells apps for, in the order the site lists them. */
export const APP_PLATFORMS = ['android', 'ios', 'mac', 'windows'] as const;
export type AppPlatform = (typeof APP_PLATFORMS)[number];

/** Where each app is downloaded (the deployment's APP_DOWNLOAD_*_URL), once the integration settings are read. */
export function useAppDownloads(): AppDownloads | null {
  const [downloads, setDownloads] = useState<AppDownloads | null>(null);
  useEffect(() => {
    let active = true;
    void loadIntegrations().then((settings) => {
      if (active) setDownloads(settings.downloads ?? INTEGRATIONS_OFF.downloads);
    });
    return () => {
      active = false;
    };
  }, []);
  return downloads;
}
