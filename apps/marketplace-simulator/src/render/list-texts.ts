/** Wording of the best-seller lists and the department list, per storefront language (English otherwise). */
export interface ListTexts {
  /** The list's heading for a category, per kind of list. */
  heading(list: string, category: string): string;
  anyDepartment: string;
  department: string;
  nextPage: string;
}

const EN: ListTexts = {
  heading: (list, c) =>
    list === 'new-releases' ? `Hot New Releases in ${c}` : list === 'movers-and-shakers' ? `Movers & Shakers in ${c}` : `Best Sellers in ${c}`,
  anyDepartment: 'Any Department',
  department: 'Department',
  nextPage: 'Next page',
};

const BY_LANGUAGE: Record<string, ListTexts> = {
  en: EN,
  de: {
    heading: (list, c) =>
      list === 'new-releases' ? `Neuerscheinungen in ${c}` : list === 'movers-and-shakers' ? `Movers & Shakers in ${c}` : `Bestseller in ${c}`,
    anyDepartment: 'Alle Kategorien',
    department: 'Kategorie',
    nextPage: 'Nächste Seite',
  },
  fr: {
    heading: (list, c) =>
      list === 'new-releases' ? `Nouveautés en ${c}` : list === 'movers-and-shakers' ? `Movers & Shakers en ${c}` : `Meilleures ventes en ${c}`,
    anyDepartment: 'Toutes nos catégories',
    department: 'Catégorie',
    nextPage: 'Page suivante',
  },
  es: {
    heading: (list, c) =>
      list === 'new-releases' ? `Novedades en ${c}` : list === 'movers-and-shakers' ? `Movers & Shakers en ${c}` : `Los más vendidos en ${c}`,
    anyDepartment: 'Todos los departamentos',
    department: 'Departamento',
    nextPage: 'Página siguiente',
  },
  it: {
    heading: (list, c) => (list === 'new-releases' ? `Novità in ${c}` : list === 'movers-and-shakers' ? `Movers & Shakers in ${c}` : `Bestseller in ${c}`),
    anyDepartment: 'Tutte le categorie',
    department: 'Reparto',
    nextPage: 'Pagina successiva',
  },
  ja: {
    heading: (list, c) =>
      list === 'new-releases' ? `新着ランキング: ${c}` : list === 'movers-and-shakers' ? `人気度ランキング: ${c}` : `売れ筋ランキング: ${c}`,
    anyDepartment: 'すべてのカテゴリー',
    department: 'カテゴリー',
    nextPage: '次のページ',
  },
};

export function listTextsFor(language: string): ListTexts {
  return BY_LANGUAGE[language.slice(0, 2)] ?? EN;
}
