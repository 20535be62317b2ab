/**
 * Old path of {@link LinePicker} (src/report/line-picker.ts), kept only while src/pulumi/lines.ts
 * imports it from here: delete once that file imports `LinePicker` from '../report/index.js'.
 * @deprecated
 */
export { LinePicker as LogLines } from './line-picker.js';
