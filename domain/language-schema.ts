import { z } from 'zod';
import { LANGUAGES } from './languages';

// The language a request names, validated. A module of its own, apart from domain/languages.ts: the
// portal's first load needs the language list but not zod (issue 25's public-page budget), and a
// schema defined next to the list would pull zod into whatever chunk the list lands in.
export const languageSchema = z.enum(LANGUAGES, { error: 'Choose English, Deutsch, Polski or Français' });
