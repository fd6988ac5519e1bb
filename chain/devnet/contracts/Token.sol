// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "./ERC20.sol";

/// @title Token: a plain ERC-20 whose owner can mint, written for the partnerd devnet.
/// @notice Ownership can be renounced, after which nobody can mint again. Transfers to the zero address and
///         insufficient balances or allowances revert with reason strings (the ERC20 core is more permissive).
contract Token is ERC20 {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    address public owner;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "Token: caller is not the owner");
        _;
    }

    function mint(address to, uint256 value) external onlyOwner {
        require(to != address(0), "Token: mint to the zero address");
        _mint(to, value);
    }

    function renounceOwnership() external onlyOwner {
        emit OwnershipTransferred(owner, address(0));
        owner = address(0);
    }

    function _spendAllowance(address holder, address spender, uint256 value) internal virtual override {
        uint256 allowed = allowance[holder][spender];
        require(allowed == type(uint256).max || allowed >= value, "Token: insufficient allowance");
        super._spendAllowance(holder, spender, value);
    }

    function _transfer(address from, address to, uint256 value) internal virtual override {
        require(to != address(0), "Token: transfer to the zero address");
        require(balanceOf[from] >= value, "Token: insufficient balance");
        super._transfer(from, to, value);
    }
}
