export { detectText, isPayload, THRESHOLD, type Signal, type Slot, type StringVerdict, type TextContext } from './detect';
export { scanTool, judgeTool, toolCandidates, type JudgedString, type PayloadHit, type ScanOptions } from './scan';
export { resolveLabel, labelStrings, labelCovers, type Label } from './labels';
export { analyseInjection, injectionAnalysis, type InjectionAnalysis } from './analysis';
export { locationFor, addLabelFix, relabelFix, removeLabelFix } from './fixes';
export { hitData } from './data';
