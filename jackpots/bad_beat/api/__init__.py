"""The Bad Beat's API views: claims, distributions and payments, display adjustments and fund transfers."""
