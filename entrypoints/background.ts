export default defineBackground(() => {
  // Wiring only: the snapshot service is registered here (lib/ holds the logic).
});
