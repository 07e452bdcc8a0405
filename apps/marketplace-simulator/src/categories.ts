/** A product family of the simulated catalog; names are fictional, prices in USD cents. */
export interface Category {
  /** Breadcrumb, English; see LOCALIZED_CATEGORY for other storefront languages. */
  path: readonly [string, string];
  /** Words in a search keyword that select this category. */
  keywords: readonly string[];
  brands: readonly string[];
  nouns: readonly string[];
  adjectives: readonly string[];
  specs: readonly string[];
  features: readonly string[];
  priceCents: readonly [number, number];
  variation: 'size_name' | 'color_name';
  variationValues: readonly string[];
}

export const CATEGORIES: readonly Category[] = [
  {
    path: ['Electronics', 'Headphones'],
    keywords: ['headphone', 'headphones', 'earbuds', 'kopfhörer', 'casque', 'イヤホン', 'auriculares'],
    brands: ['Nordvik', 'Sonarc', 'Auralis', 'Kestrel Audio'],
    nouns: ['Wireless Headphones', 'Noise Cancelling Headphones', 'Bluetooth Earbuds', 'Over-Ear Headphones'],
    adjectives: ['Active', 'Studio', 'Pro', 'Lite', 'Max'],
    specs: ['40h Battery', 'Bluetooth 5.3 & USB-C', 'Hi-Res Audio', 'Built-in Mic'],
    features: [
      'Industry-leading noise cancellation with two processors and eight microphones',
      'Up to 40 hours of battery life; 3 minutes of charging gives 3 hours of playback',
      'Lightweight "soft-fit" leather for all-day comfort',
      'Crystal-clear calls with precise voice pickup',
      'Multipoint connection: switch between two devices instantly',
      'Foldable design with a hard-shell travel case',
    ],
    priceCents: [1999, 39999],
    variation: 'color_name',
    variationValues: ['Black', 'Silver', 'Midnight Blue', 'Sand'],
  },
  {
    path: ['Computers & Accessories', 'Laptops'],
    keywords: ['laptop', 'laptops', 'notebook', 'computer', 'ordinateur', 'ノートパソコン', 'portátil'],
    brands: ['Zentra', 'Qubix', 'Lumen Systems', 'Arcwell'],
    nouns: ['Laptop', 'Ultrabook', 'Chromebook', 'Gaming Laptop'],
    adjectives: ['Slim 14"', 'Air 13"', 'Pro 16"', 'Flex 15.6"'],
    specs: ['16GB RAM, 512GB SSD', '8GB RAM, 256GB SSD', '32GB RAM, 1TB SSD', 'FHD IPS Display'],
    features: [
      'Fast 8-core processor for smooth multitasking',
      'Full HD anti-glare display with narrow bezels',
      'Backlit keyboard & fingerprint reader',
      'Up to 12 hours of battery life',
      'Wi-Fi 6, USB-C with power delivery and HDMI 2.0',
      "Windows 11 Home, ready for today's apps",
    ],
    priceCents: [19999, 249999],
    variation: 'size_name',
    variationValues: ['256GB', '512GB', '1TB'],
  },
  {
    path: ['Home & Kitchen', 'Kettles'],
    keywords: ['kettle', 'kettles', 'wasserkocher', 'bouilloire', 'ケトル', 'hervidor'],
    brands: ['Brevik', 'Hearthline', 'Copperleaf'],
    nouns: ['Electric Kettle', 'Glass Kettle', 'Gooseneck Kettle', 'Travel Kettle'],
    adjectives: ['Quiet Boil', 'Rapid', 'Temperature Control', 'Cordless'],
    specs: ['1.7 L, 3000 W', '1.2 L, 2200 W', '0.8 L, 1200 W'],
    features: [
      'Boils one cup in about 55 seconds',
      'Auto shut-off and boil-dry protection',
      '360° swivel base with cord storage',
      'Removable, washable limescale filter',
      'BPA-free, stainless steel interior',
    ],
    priceCents: [1499, 8999],
    variation: 'color_name',
    variationValues: ['Stainless Steel', 'Matte Black', 'Cream'],
  },
  {
    path: ['Toys & Games', 'Building Toys'],
    keywords: ['lego', 'toy', 'toys', 'bricks', 'spielzeug', 'jouet', 'おもちゃ', 'juguete'],
    brands: ['Brickbay', 'Tinkertown', 'Playforge'],
    nouns: ['Building Set', 'Construction Kit', 'Brick Set', 'Marble Run'],
    adjectives: ['Space Station', 'Castle', 'City Fire Truck', 'Dinosaur'],
    specs: ['842 Pieces', '312 Pieces', '1,204 Pieces'],
    features: [
      'Compatible with all major brick brands',
      'Step-by-step illustrated instructions included',
      'Encourages creative play and fine motor skills',
      'Recommended for ages 8 and up',
    ],
    priceCents: [999, 14999],
    variation: 'size_name',
    variationValues: ['Small', 'Medium', 'Large'],
  },
  {
    path: ['Sports & Outdoors', 'Water Bottles'],
    keywords: ['bottle', 'water bottle', 'trinkflasche', 'gourde', '水筒', 'botella'],
    brands: ['Trailcraft', 'Hydrion', 'Summitware'],
    nouns: ['Insulated Water Bottle', 'Sports Bottle', 'Vacuum Flask'],
    adjectives: ['Leakproof', 'Double-Wall', 'Wide-Mouth'],
    specs: ['750 ml', '1 L', '500 ml'],
    features: ['Keeps drinks cold for 24 hours and hot for 12', '18/8 food-grade stainless steel', 'Leakproof lid & carry loop', 'Dishwasher safe'],
    priceCents: [899, 4999],
    variation: 'color_name',
    variationValues: ['Black', 'Forest Green', 'White'],
  },
  {
    path: ['Office Products', 'Notebooks'],
    keywords: ['notebook paper', 'journal', 'notizbuch', 'carnet', 'ノート', 'cuaderno', 'stationery'],
    brands: ['Paperlane', 'Inkwell & Co', 'Folio Works'],
    nouns: ['Hardcover Notebook', 'Dotted Journal', 'Spiral Notebook'],
    adjectives: ['A5', 'B5', 'Pocket'],
    specs: ['192 Pages, 100 gsm', '120 Pages', '240 Pages'],
    features: ['Thick 100 gsm paper, no bleed-through', 'Lay-flat binding', 'Elastic closure and ribbon marker'],
    priceCents: [599, 2999],
    variation: 'color_name',
    variationValues: ['Black', 'Navy', 'Burgundy'],
  },
  {
    path: ['Tools & Home Improvement', 'Power Drills'],
    keywords: ['drill', 'drills', 'bohrmaschine', 'perceuse', 'ドリル', 'taladro', 'tools'],
    brands: ['Ironclad', 'Voltmark', 'Torqwell'],
    nouns: ['Cordless Drill', 'Hammer Drill', 'Impact Driver'],
    adjectives: ['20V', '18V Brushless', '12V Compact'],
    specs: ['2 Batteries & Charger', 'with 30-Piece Bit Set', 'Tool Only'],
    features: ['Brushless motor for longer runtime', '2-speed gearbox, 0-1,500 RPM', 'LED work light', 'Includes carry case'],
    priceCents: [2999, 29999],
    variation: 'size_name',
    variationValues: ['Tool Only', '1 Battery', '2 Batteries'],
  },
  {
    path: ['Pet Supplies', 'Dog Toys'],
    keywords: ['dog', 'dog toy', 'hundespielzeug', 'jouet chien', '犬', 'perro'],
    brands: ['Barkwell', 'Pawforge', 'Happy Tails'],
    nouns: ['Chew Toy', 'Rope Toy', 'Squeaky Ball'],
    adjectives: ['Indestructible', 'Interactive', 'Durable'],
    specs: ['for Large Dogs', '3-Pack', 'for Puppies'],
    features: ['Made from natural rubber', 'Floats in water', 'Cleans teeth while chewing'],
    priceCents: [499, 2999],
    variation: 'size_name',
    variationValues: ['S', 'M', 'L', 'XL'],
  },
];

const LOCALIZED_NAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  de: {
    Electronics: 'Elektronik & Foto',
    Headphones: 'Kopfhörer',
    'Computers & Accessories': 'Computer & Zubehör',
    Laptops: 'Laptops',
    'Home & Kitchen': 'Küche, Haushalt & Wohnen',
    Kettles: 'Wasserkocher',
    'Toys & Games': 'Spielzeug',
    'Building Toys': 'Bausteine',
    'Sports & Outdoors': 'Sport & Freizeit',
    'Water Bottles': 'Trinkflaschen',
    'Office Products': 'Bürobedarf & Schreibwaren',
    Notebooks: 'Notizbücher',
    'Tools & Home Improvement': 'Baumarkt',
    'Power Drills': 'Bohrmaschinen',
    'Pet Supplies': 'Haustier',
    'Dog Toys': 'Hundespielzeug',
  },
  fr: {
    Electronics: 'High-Tech',
    Headphones: 'Casques audio',
    'Computers & Accessories': 'Informatique',
    Laptops: 'Ordinateurs portables',
    'Home & Kitchen': 'Cuisine & Maison',
    Kettles: 'Bouilloires',
    'Toys & Games': 'Jeux et Jouets',
    'Building Toys': 'Jeux de construction',
    'Sports & Outdoors': 'Sports et Loisirs',
    'Water Bottles': 'Gourdes',
    'Office Products': 'Fournitures de bureau',
    Notebooks: 'Carnets',
    'Tools & Home Improvement': 'Bricolage',
    'Power Drills': 'Perceuses',
    'Pet Supplies': 'Animalerie',
    'Dog Toys': 'Jouets pour chiens',
  },
  ja: {
    Electronics: '家電＆カメラ',
    Headphones: 'ヘッドホン',
    'Computers & Accessories': 'パソコン・周辺機器',
    Laptops: 'ノートパソコン',
    'Home & Kitchen': 'ホーム＆キッチン',
    Kettles: '電気ケトル',
    'Toys & Games': 'おもちゃ',
    'Building Toys': 'ブロック',
    'Sports & Outdoors': 'スポーツ＆アウトドア',
    'Water Bottles': '水筒',
    'Office Products': '文房具・オフィス用品',
    Notebooks: 'ノート',
    'Tools & Home Improvement': 'DIY・工具',
    'Power Drills': '電動ドリル',
    'Pet Supplies': 'ペット用品',
    'Dog Toys': '犬用おもちゃ',
  },
};

export function localizedCategory(name: string, language: string): string {
  return LOCALIZED_NAMES[language]?.[name] ?? name;
}

/** Category a keyword searches in: by vocabulary when a word matches, else by hash. */
export function categoryIndexForKeyword(keyword: string, hash: number): number {
  const lower = keyword.toLowerCase();
  for (let i = 0; i < CATEGORIES.length; i++) {
    if ((CATEGORIES[i] as Category).keywords.some((k) => lower.includes(k))) return i;
  }
  return hash % CATEGORIES.length;
}
