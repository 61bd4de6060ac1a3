export { convertOffice, type ConvertedOffice } from './convert-office.js';
export { officeKindOfZip, officeMediaTypes, type OfficeKind } from './document-kind.js';
export { csvSheet, odsSheets, xlsxSheets, type Sheet } from './sheets.js';
export { pptxSlides, type Slide } from './slides.js';
