// Backgammon: analysis only for now (no matches yet); the board drawing
// comes with backgammon's matches.
export default {
  id: "backgammon",
  title: "Backgammon",
};
