/*
  Multi-line
  comment
*/
