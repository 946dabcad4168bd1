/** One piece of evidence. Weights add up; a string is a payload at a total of 1. */
export interface Signal {
  id: string;
  weight: number;
  explanation: string;
}
