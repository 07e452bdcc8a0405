// The detailed seller information's row labels, per storefront language: `Business Name:` and
// `Business Address:` and their translations (the French ones put a space before the colon).
const NAME_LABEL =
  /^(?:business name|geschäftsname|nom commercial|nombre (?:de la empresa|comercial)|nome (?:dell['’]azienda|commerciale|da empresa)|ragione sociale|bedrijfsnaam|företagsnamn|nazwa firmy|(?:i̇|i)şletme adı|販売業者|اسم النشاط التجاري|اسم العمل)\s*[:：]\s*/i;
const ADDRESS_LABEL =
  /^(?:business address|geschäftsadresse|adresse commerciale|dirección (?:comercial|de la empresa)|indirizzo (?:dell['’]azienda|aziendale|commerciale)|endereço comercial|bedrijfsadres|företagsadress|adres firmy|(?:i̇|i)şletme adresi|住所|عنوان النشاط التجاري|عنوان العمل)\s*[:：]\s*/i;
// Any other row of the section ("Business Type:", "VAT Number:", "Telefonnummer:") ends the address.
const OTHER_LABEL = /^[^:：\d]{2,60}[:：]/;

export interface BusinessRows {
  businessName?: string;
  businessAddress?: string;
}

/**
 * The business name and address from the lines of the detailed seller information: a label line
 * carries its value after the colon (or on the next line), the address's lines follow its label
 * until the next labelled row.
 */
export function businessRows(lines: readonly string[]): BusinessRows {
  const rows: BusinessRows = {};
  let address: string[] | undefined;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    const name = NAME_LABEL.exec(line);
    const addressLabel = ADDRESS_LABEL.exec(line);
    if (name) {
      address = finish(rows, address);
      const value = line.slice(name[0].length).trim();
      if (value !== '') rows.businessName ??= value;
      else rows.businessName ??= PENDING;
      continue;
    }
    if (addressLabel) {
      address = finish(rows, address);
      address = [];
      const value = line.slice(addressLabel[0].length).trim();
      if (value !== '') address.push(value);
      continue;
    }
    if (rows.businessName === PENDING) {
      rows.businessName = line;
      continue;
    }
    if (address !== undefined) {
      if (OTHER_LABEL.test(line)) address = finish(rows, address);
      else address.push(line);
    }
  }
  finish(rows, address);
  if (rows.businessName === PENDING) delete rows.businessName;
  return rows;
}

const PENDING = '\u0000';

function finish(rows: BusinessRows, address: string[] | undefined): undefined {
  if (address !== undefined && address.length > 0) rows.businessAddress ??= address.join(', ');
  return undefined;
}
