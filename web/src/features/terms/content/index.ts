import type { Lang } from '../../../i18n/languages';
import { en } from './en';
import { ja } from './ja';
import { ko } from './ko';
import type { PolicyTexts } from './types';

export type { PolicyDocument, PolicySection, PolicyTexts } from './types';

export const policyTexts: Record<Lang, PolicyTexts> = { ko, en, ja };
